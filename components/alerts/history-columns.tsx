import type { DeliveryRow, TransitionRow } from "@/lib/alerts/history-view";
import { createDataColumnHelper } from "../data-table/data-table";
import { LocalTime } from "../ui/local-time";

const transition = createDataColumnHelper<TransitionRow>();

export const transitionColumns = transition.columns([
  transition.accessor("minute", {
    header: "Minute",
    cell: (info) => <LocalTime iso={info.getValue()} style="short" />,
    meta: { description: "The evaluated minute whose window crossed the threshold" },
  }),
  transition.accessor("kind", {
    header: "Transition",
    cell: (info) => (
      <span className={info.getValue() === "firing" ? "badge badge-error" : "badge badge-ok"}>
        {info.getValue()}
      </span>
    ),
  }),
  transition.accessor("value", {
    header: "Value",
    cell: (info) => <span className="cell-wrap">{info.getValue()}</span>,
  }),
  transition.accessor("threshold", { header: "Threshold" }),
  transition.accessor("muted", {
    header: "Sent",
    cell: (info) =>
      info.getValue() ? <span className="muted">muted: not sent</span> : "to every channel",
  }),
]);

const delivery = createDataColumnHelper<DeliveryRow>();

export const deliveryColumns = delivery.columns([
  delivery.accessor("createdAt", {
    header: "Created",
    cell: (info) => <LocalTime iso={info.getValue()} style="short" />,
  }),
  delivery.accessor("kind", { header: "Message" }),
  delivery.accessor("channel", {
    header: "Channel",
    cell: (info) => (
      <span className="cell-clip" title={info.row.original.channelUrl}>
        {info.getValue()} <span className="muted small">{info.row.original.channelUrl}</span>
      </span>
    ),
  }),
  delivery.accessor("status", {
    header: "Status",
    cell: (info) => {
      const row = info.row.original;
      const tone =
        row.status === "delivered"
          ? "badge badge-ok"
          : row.status === "failed"
            ? "badge badge-error"
            : "badge badge-warn";
      return (
        <span>
          <span className={tone}>{row.status}</span>
          {row.nextAttemptAt ? (
            <span className="small muted">
              {" "}
              next try <LocalTime iso={row.nextAttemptAt} style="time" />
            </span>
          ) : null}
        </span>
      );
    },
  }),
  delivery.accessor("attempts", {
    header: "Attempts",
    cell: (info) => {
      const attempts = info.getValue();
      if (attempts.length === 0) return <span className="muted">none yet</span>;
      return (
        <ol className="plain-list small attempt-list" data-testid="delivery-attempts">
          {attempts.map((attempt) => (
            <li key={attempt.attempt}>
              #{attempt.attempt} <LocalTime iso={attempt.at} style="time" />{" "}
              <span className={attempt.ok ? "badge badge-ok" : "badge badge-error"}>
                {attempt.status}
              </span>{" "}
              {attempt.latency}
              {attempt.error ? <span className="form-error"> {attempt.error}</span> : null}
            </li>
          ))}
        </ol>
      );
    },
  }),
]);
