export { decisionEvent, outcomeEvent, stageRecord } from "@/lib/telemetry/events";
