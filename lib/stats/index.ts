/**
 * Pure statistics for the rollout comparisons: no I/O, no imports from the app.
 */
export { excludesZero, type Interval } from "./interval";
export {
  describeFromSums,
  type MeanSample,
  meanInterval,
  type WelchInterval,
  welchInterval,
} from "./mean";
export { normalCdf, normalCriticalValue, normalQuantile } from "./normal";
export {
  minimumTrialsForUpperBound,
  newcombeInterval,
  type Proportion,
  wilsonInterval,
} from "./proportion";
export { meanRatioInterval, proportionRatioInterval, toRelativeDifference } from "./ratio";
export { studentTCdf, studentTCriticalValue, studentTQuantile } from "./student-t";
