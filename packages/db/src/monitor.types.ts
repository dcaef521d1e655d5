/** Monitor rows as the gateway and the monitor services see them. */
export type MonitorStatus = 'active' | 'paused' | 'cancelled';
/** `cron` when the monitor runs on a cron expression (`MonitorView.cron`) instead of an interval. */
export type MonitorInterval = 'hourly' | 'daily' | 'weekly' | 'cron';
/** Why a monitor is paused: no credit for a check (resumes by itself) or the user (resumes on request). */
export type WebhookFormat = 'json' | 'slack' | 'discord';
export type MonitorPausedBy = 'credits' | 'user';

export interface MonitorView {
  id: string;
  accountId: string;
  url: string;
  interval: MonitorInterval;
  /** 5-field cron expression of the checks (read in `timezone`); null for an interval monitor. */
  cron: string | null;
  /** IANA time zone of `cron` (UTC by default). */
  timezone: string;
  webhookUrl: string | null;
  status: MonitorStatus;
  /** null unless paused */
  pausedBy: MonitorPausedBy | null;
  lastHash: string | null;
  /** ETag / Last-Modified of the last successful check's response (sent with the next check). */
  lastValidators: { etag?: string; lastModified?: string } | null;
  lastCheckAt: Date | null;
  nextCheckAt: Date | null;
  /** Fixed offset of this monitor's checks inside its interval (spreads load). */
  jitterMs: number;
  /** Plain page options of its checks (parsed by the checker with @wcs/queues' pageOptions). */
  pageOptions: unknown;
  /** Lines left out before hashing and diffing: plain substrings or "/regex/flags" ([] when none). */
  ignoreText: string[];
  /** Share of words that must change for a change to count (0 = any). */
  threshold: number;
  /** What the extract model judges each change against; null without one. */
  goal: string | null;
  /** Body of the webhook: the spec's JSON, or a Slack / Discord incoming-webhook message. */
  webhookFormat: WebhookFormat;
  /** The API key that created it: its checks count against that key's credit limits (null: none). */
  apiKeyId: string | null;
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
  /** { added, removed, text, truncated }; null for changes recorded before diffs were kept */
  diff: MonitorDiff | null;
  judgement: Judgement | null;
}

/** A change's diff as kept and sent (bounded by the checker). */
export interface MonitorDiff {
  added: string[];
  removed: string[];
  /** Unified diff of the cleaned markdown. */
  text: string;
  truncated: boolean;
}

/** The goal's judge on one change. */
export interface Judgement {
  relevant: boolean;
  reason: string;
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
  /** The judge's answer when this check's change was judged (an irrelevant one stays here only). */
  judgement: Judgement | null;
}

/** A check whose change the goal's judge found irrelevant: no change record, only this. */
export interface IrrelevantChangeView {
  checkedAt: Date;
  judgement: Judgement;
}

export interface MonitorDetail {
  monitor: MonitorView;
  checks: MonitorCheckView[];
  /** The latest checks judged irrelevant, whether or not they are among `checks`. */
  irrelevantChanges: IrrelevantChangeView[];
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
  /** Words changed below the monitor's threshold: no change, the baseline kept (changes add up). */
  | { kind: 'below_threshold'; checkId: string }
  /** The goal's judge found the change irrelevant: no change, the baseline moves on. */
  | { kind: 'irrelevant'; checkId: string }
  | { kind: 'changed'; checkId: string; changeId: string; webhookUrl: string | null };

/** What the checker decided about a content that differs from the baseline it read. */
export type CheckDecision =
  | { kind: 'below_threshold' }
  | { kind: 'irrelevant'; judgement: Judgement }
  | { kind: 'change'; diff?: MonitorDiff; judgement?: Judgement };

/** What the webhook dispatcher needs for one change. */
export interface WebhookTask {
  changeId: string;
  monitorId: string;
  accountId: string;
  url: string;
  webhookUrl: string | null;
  webhookFormat: WebhookFormat;
  detectedAt: Date;
  snapshot: string;
  diff: MonitorDiff | null;
  judgement: Judgement | null;
  alreadyAttempted: boolean;
}
