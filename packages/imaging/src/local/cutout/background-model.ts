/**
 * A model of a plain or softly graded photo background, built from the image border.
 *
 * Each edge is summarised as a colour profile; profile samples the product covers (it may
 * touch the frame) are replaced by a robust straight-line fit of the rest, and the four
 * profiles are blended over the frame as a Coons patch, which reproduces flat backdrops and
 * linear gradients exactly and follows vignettes and radial falloff closely.
 */
export interface BackgroundModel {
  /** The modelled backdrop colour of every pixel, RGB float, width × height × 3. */
  render(): Float32Array;
  /** Robust noise of the border around the model, in RGB distance units. */
  noise: number;
  /** Share of border samples the model explains; low means a busy, not plain, background. */
  inlierShare: number;
}

type Profile = Float32Array; // n × 3

/** Mean colour across `depth` pixels inward from one edge, for every position along it. */
function edgeProfile(
  rgba: Uint8Array,
  width: number,
  height: number,
  edge: 'top' | 'bottom' | 'left' | 'right',
  depth: number,
): Profile {
  const horizontal = edge === 'top' || edge === 'bottom';
  const n = horizontal ? width : height;
  const out = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    let r = 0,
      g = 0,
      b = 0;
    for (let d = 0; d < depth; d++) {
      const x = horizontal ? i : edge === 'left' ? d : width - 1 - d;
      const y = horizontal ? (edge === 'top' ? d : height - 1 - d) : i;
      const p = (y * width + x) * 4;
      r += rgba[p]!;
      g += rgba[p + 1]!;
      b += rgba[p + 2]!;
    }
    out[i * 3] = r / depth;
    out[i * 3 + 1] = g / depth;
    out[i * 3 + 2] = b / depth;
  }
  return out;
}

/** Least-squares line per channel through the samples flagged in `use`. */
function fitLine(profile: Profile, use: Uint8Array): { a: number[]; b: number[] } {
  const n = use.length;
  const a = [0, 0, 0],
    b = [0, 0, 0];
  let st = 0,
    stt = 0,
    count = 0;
  const sc = [0, 0, 0],
    stc = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    if (!use[i]) continue;
    const t = i / Math.max(1, n - 1);
    st += t;
    stt += t * t;
    count++;
    for (let c = 0; c < 3; c++) {
      sc[c]! += profile[i * 3 + c]!;
      stc[c]! += t * profile[i * 3 + c]!;
    }
  }
  const det = count * stt - st * st;
  for (let c = 0; c < 3; c++) {
    if (count === 0) continue;
    b[c] = Math.abs(det) < 1e-9 ? 0 : (count * stc[c]! - st * sc[c]!) / det;
    a[c] = (sc[c]! - b[c]! * st) / count;
  }
  return { a, b };
}

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Replaces outlying samples by the line fitted to the inliers; returns residuals of inliers. */
function robustProfile(profile: Profile): { profile: Profile; residuals: number[]; inliers: number } {
  const n = profile.length / 3;
  const use = new Uint8Array(n).fill(1);
  let line = fitLine(profile, use);
  const residual = new Float32Array(n);
  for (let iteration = 0; iteration < 3; iteration++) {
    for (let i = 0; i < n; i++) {
      const t = i / Math.max(1, n - 1);
      let d2 = 0;
      for (let c = 0; c < 3; c++) d2 += (profile[i * 3 + c]! - (line.a[c]! + line.b[c]! * t)) ** 2;
      residual[i] = Math.sqrt(d2);
    }
    const used: number[] = [];
    for (let i = 0; i < n; i++) if (use[i]) used.push(residual[i]!);
    const cut = Math.max(6, 4 * 1.4826 * median(used));
    for (let i = 0; i < n; i++) use[i] = residual[i]! <= cut ? 1 : 0;
    line = fitLine(profile, use);
  }
  const out = new Float32Array(profile.length);
  const residuals: number[] = [];
  let inliers = 0;
  for (let i = 0; i < n; i++) {
    const t = i / Math.max(1, n - 1);
    for (let c = 0; c < 3; c++) out[i * 3 + c] = use[i] ? profile[i * 3 + c]! : line.a[c]! + line.b[c]! * t;
    if (use[i]) {
      residuals.push(residual[i]!);
      inliers++;
    }
  }
  return { profile: smooth(out, Math.max(1, Math.round(n / 128))), residuals, inliers };
}

/** Box-smooths a colour profile so sensor noise in the border does not streak the model. */
function smooth(profile: Profile, radius: number): Profile {
  const n = profile.length / 3;
  const out = new Float32Array(profile.length);
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - radius),
      hi = Math.min(n - 1, i + radius);
    for (let c = 0; c < 3; c++) {
      let sum = 0;
      for (let j = lo; j <= hi; j++) sum += profile[j * 3 + c]!;
      out[i * 3 + c] = sum / (hi - lo + 1);
    }
  }
  return out;
}

export function estimateBackground(rgba: Uint8Array, width: number, height: number): BackgroundModel {
  const depth = Math.max(1, Math.round(Math.min(width, height) / 200));
  const fits = (['top', 'bottom', 'left', 'right'] as const).map((edge) =>
    robustProfile(edgeProfile(rgba, width, height, edge, depth)),
  );
  const [top, bottom, left, right] = fits.map((f) => f.profile) as [Profile, Profile, Profile, Profile];
  const corner = (p: Profile, q: Profile, i: number, j: number, c: number) => (p[i * 3 + c]! + q[j * 3 + c]!) / 2;
  const c00 = [0, 1, 2].map((c) => corner(top, left, 0, 0, c));
  const c10 = [0, 1, 2].map((c) => corner(top, right, width - 1, 0, c));
  const c01 = [0, 1, 2].map((c) => corner(bottom, left, 0, height - 1, c));
  const c11 = [0, 1, 2].map((c) => corner(bottom, right, width - 1, height - 1, c));
  const residuals = fits.flatMap((f) => f.residuals);
  const samples = 2 * (width + height);
  return {
    noise: 1.4826 * median(residuals),
    inlierShare: fits.reduce((sum, f) => sum + f.inliers, 0) / samples,
    render() {
      const out = new Float32Array(width * height * 3);
      for (let y = 0; y < height; y++) {
        const v = y / Math.max(1, height - 1);
        for (let c = 0; c < 3; c++) {
          // Everything but the per-column terms is constant along a row.
          const rowTerm = left[y * 3 + c]! - (1 - v) * c00[c]! - v * c01[c]!;
          const rowSlope =
            right[y * 3 + c]! - left[y * 3 + c]! - ((1 - v) * (c10[c]! - c00[c]!) + v * (c11[c]! - c01[c]!));
          for (let x = 0, i = y * width * 3 + c; x < width; x++, i += 3) {
            const u = x / Math.max(1, width - 1);
            out[i] = (1 - v) * top[x * 3 + c]! + v * bottom[x * 3 + c]! + rowTerm + u * rowSlope;
          }
        }
      }
      return out;
    },
  };
}
