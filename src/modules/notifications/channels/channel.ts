// What every channel answers for one attempt: delivered, or failed with whether trying again can help.

/** The outcome of one attempt to deliver through a channel. */
export type Outcome<T = object> =
  | ({ ok: true } & T)
  | {
    ok: false;
    /** For people and the admin list: what went wrong, without secrets. */
    error: string;
    /** False when trying again cannot help (an unknown address, a refused token): give up now. */
    retryable: boolean;
    /** The peer asked us to wait this long (Slack's 429 Retry-After). */
    retryAfterMs?: number;
  };

/** An email, already rendered. */
export interface Email {
  to: { name: string; address: string };
  subject: string;
  text: string;
  html: string;
}

/** Sends email; one implementation (smtp.ts), behind this so delivery does not know the protocol. */
export interface EmailChannel {
  send(email: Email): Promise<Outcome<{ messageId: string }>>;
  close(): void;
}

/** A Slack message: the fallback text (notifications, screen readers) and its Block Kit blocks. */
export interface SlackMessage {
  text: string;
  blocks: unknown[];
}

/** Talks to Slack's Web API (slack.ts). */
export interface SlackChannel {
  /** chat.postMessage to a channel id or a user id (a direct message from the app). */
  post(channel: string, message: SlackMessage): Promise<Outcome<{ channel: string; ts: string }>>;
  /** chat.update of a message posted before. */
  update(channel: string, ts: string, message: SlackMessage): Promise<Outcome>;
  /** users.lookupByEmail: the Slack user id of a person. */
  userIdByEmail(email: string): Promise<Outcome<{ userId: string }>>;
  /** users.info: a Slack user's email (to map a button click to a Gatehouse user). */
  emailOfUser(userId: string): Promise<Outcome<{ email: string }>>;
}
