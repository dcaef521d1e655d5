/** Monitor rows as the gateway and the monitor services see them. */
export type MonitorStatus = 'active' | 'paused' | 'cancelled';
export type MonitorInterval = 'hourly' | 'daily' | 'weekly';
/** Why a monitor is paused: no credit for a check (resumes by itself) or the user (resumes on request). */
export type MonitorPausedBy = 'credits' | 'user';

export interface MonitorView {
  id: string;
  accountId: string;
  url: string;
  interval: MonitorInterval;
  webhookUrl: string | null;
  status: MonitorStatus;
  /** null unless paused */
  pausedBy: MonitorPausedBy | null;
  lastHash: string | null;
  lastCheckAt: Date | null;
  nextCheckAt: Date | null;
  /** Fixed offset of this monitor's checks inside its interval (spreads load). */
  jitterMs: number;
  /** Plain page options of its checks (parsed by the checker with @wcs/queues' pageOptions). */
  pageOptions: unknown;
  createdAt: Date;
  updatedAt: Date;
}

export interface MonitorChangeView {
  id: string;
  detectedAt: Date;
  hash: string;
  snapshot: string;
  /** the snapshot before this change; null for changes recorded before it was kept */
  previousSnapshot: string | null;
}

export interface WebhookDeliveryView {
  id: string;
  changeId: string;
  url: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  attemptedAt: Date;
}

export interface MonitorCheckView {
  id: string;
  checkedAt: Date;
  hash: string | null;
  changed: boolean;
  error: string | null;
  errorCode: string | null;
}

export interface MonitorDetail {
  monitor: MonitorView;
  checks: MonitorCheckView[];
  checkCount: number;
  changes: MonitorChangeView[];
  deliveries: WebhookDeliveryView[];
}

/** Outcome of recording a successful check. */
export type CheckOutcome =
  | { kind: 'skipped'; status: MonitorStatus }
  | { kind: 'paused' }
  | { kind: 'baseline' | 'unchanged'; checkId: string }
  /** A check already recorded had begun later (checks finished out of order): compared with nothing. */
  | { kind: 'superseded'; checkId: string }
  | { kind: 'changed'; checkId: string; changeId: string; webhookUrl: string | null };

/** What the webhook dispatcher needs for one change. */
export interface WebhookTask {
  changeId: string;
  monitorId: string;
  accountId: string;
  url: string;
  webhookUrl: string | null;
  detectedAt: Date;
  snapshot: string;
  alreadyAttempted: boolean;
}
