#!/bin/sh
# Renders every template under NGINX_ENVSUBST_TEMPLATE_DIR (default /etc/nginx/templates) whose name
# ends in NGINX_ENVSUBST_TEMPLATE_SUFFIX (default .template) into NGINX_ENVSUBST_OUTPUT_DIR (default
# /etc/nginx/conf.d), keeping subfolders and dropping the suffix: templates/default.conf.template
# becomes conf.d/default.conf. Only variables that are set and whose names match the extended regular
# expression NGINX_ENVSUBST_FILTER (default: all) are filled in, so nginx's own $variables survive.
# As in the official image. Stream templates (*.stream-template) are not supported by this stand-in.
set -e

name=$(basename "$0")
note() {
  [ -n "${NGINX_ENTRYPOINT_QUIET_LOGS:-}" ] || echo "$name: $*"
}

templates="${NGINX_ENVSUBST_TEMPLATE_DIR:-/etc/nginx/templates}"
suffix="${NGINX_ENVSUBST_TEMPLATE_SUFFIX:-.template}"
output="${NGINX_ENVSUBST_OUTPUT_DIR:-/etc/nginx/conf.d}"

[ -d "$templates" ] || exit 0
if [ ! -w "$output" ]; then
  note "ERROR: $templates exists, but $output is not writable"
  exit 0
fi

# envsubst's SHELL-FORMAT argument: '${A} ${B} …' for each variable in the environment whose name matches.
# awk reads names from ENVIRON, which a value spanning lines cannot confuse.
shell_format=$(PRODSHOT_ENVSUBST_RE="${NGINX_ENVSUBST_FILTER:-}" awk 'BEGIN {
  re = ENVIRON["PRODSHOT_ENVSUBST_RE"]
  for (variable in ENVIRON) {
    if (variable != "PRODSHOT_ENVSUBST_RE" && variable ~ re) printf "${%s} ", variable
  }
}')

find "$templates" -follow -type f -name "*$suffix" | while read -r template; do
  relative="${template#"$templates/"}"
  target="$output/${relative%"$suffix"}"
  mkdir -p "$(dirname "$target")"
  note "rendering $template to $target"
  envsubst "$shell_format" < "$template" > "$target"
done

if [ -n "$(find "$templates" -name '*.stream-template' | head -n 1)" ]; then
  note "WARNING: stream templates found; this stand-in renders http templates only"
fi
exit 0
