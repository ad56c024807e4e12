/**
 * Special functions the interval estimates need: log-gamma, the regularized incomplete beta
 * function (Student t tails) and the regularized incomplete gamma function (the normal tail via
 * erfc). Pure numerics, double precision, no dependencies.
 */

/** Lanczos coefficients (g = 7, n = 9), as published with the Lanczos approximation. */
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
  -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
  1.5056327351493116e-7,
] as const;

/** ln Γ(x) for x > 0 (Lanczos approximation, relative error about 1e-15). */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma needs x > 0, got ${x}`);
  if (x < 0.5) {
    // Reflection: Γ(x) Γ(1 − x) = π / sin(πx).
    return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  }
  const z = x - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < LANCZOS.length; i++) sum += (LANCZOS[i] as number) / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

const EPSILON = 1e-15;
const TINY = 1e-300;
const MAX_ITERATIONS = 100_000;

/**
 * Continued fraction of the incomplete beta function, evaluated with the modified Lentz
 * method (Numerical Recipes, 3rd ed., §6.4).
 */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) return h;
  }
  throw new Error(`incomplete beta did not converge (x=${x}, a=${a}, b=${b})`);
}

/** I_x(a, b), the regularized incomplete beta function, for 0 ≤ x ≤ 1 and a, b > 0. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new RangeError(`incomplete beta needs a, b > 0 (a=${a}, b=${b})`);
  if (!(x >= 0 && x <= 1)) throw new RangeError(`incomplete beta needs 0 ≤ x ≤ 1, got ${x}`);
  if (x === 0) return 0;
  if (x === 1) return 1;
  const logFront =
    logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(logFront);
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use symmetry otherwise.
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(x, a, b)) / a;
  return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/**
 * Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function (Numerical
 * Recipes §6.2: series below a + 1, continued fraction above).
 */
export function regularizedUpperGamma(a: number, x: number): number {
  if (!(a > 0)) throw new RangeError(`incomplete gamma needs a > 0, got ${a}`);
  if (!(x >= 0)) throw new RangeError(`incomplete gamma needs x ≥ 0, got ${x}`);
  if (x === 0) return 1;
  const logFront = -x + a * Math.log(x) - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n <= MAX_ITERATIONS; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPSILON) return 1 - sum * Math.exp(logFront);
    }
    throw new Error(`incomplete gamma series did not converge (a=${a}, x=${x})`);
  }
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i <= MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) return Math.exp(logFront) * h;
  }
  throw new Error(`incomplete gamma fraction did not converge (a=${a}, x=${x})`);
}

/** The complementary error function, erfc(x) = Q(1/2, x²) for x ≥ 0. */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const q = regularizedUpperGamma(0.5, x * x);
  return x >= 0 ? q : 2 - q;
}
