/** `showLabel` prints the label beside the wheel, for waits short enough to name in the flow itself. */
export function Spinner({
  label,
  fullPage = false,
  showLabel = false,
}: {
  label: string;
  fullPage?: boolean;
  showLabel?: boolean;
}) {
  const layout = fullPage ? 'spinner-page' : showLabel ? 'spinner-labelled' : 'spinner-inline';
  return (
    <div className={layout} role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className={showLabel ? undefined : 'sr-only'}>{label}</span>
    </div>
  );
}
