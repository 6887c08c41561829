import 'server-only';
import nodemailer from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport';
import { env, publicBaseUrl, type Env } from '@/server/env';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Hands a message to the mail relay; throws when the relay does not take it (the caller retries). */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface SmtpTimeouts {
  connectionTimeout: number;
  greetingTimeout: number;
  socketTimeout: number;
}

/**
 * How long a silent relay may hold a send. nodemailer's defaults (2 min to connect, 10 min of
 * socket silence) outlast the outbox lease (5 min, src/server/jobs/worker.ts): a send hanging that
 * long lets another worker claim the same row and the customer gets the e-mail twice, and it stalls
 * every e-mail behind it. A send either ends well inside the lease or fails and is retried.
 */
export const SMTP_TIMEOUTS: SmtpTimeouts = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

/** Any SMTP relay, by address (`smtp://user:pass@host:587`, `smtps://…:465`), through nodemailer. */
export function smtpMailer(url: string, from: string, timeouts: SmtpTimeouts = SMTP_TIMEOUTS): Mailer {
  // createTransport({ url, … }) would drop every option beside the url; the SMTP transport itself
  // merges them (settings in the url's query string, e.g. `?socketTimeout=30000`, still win).
  const transport = nodemailer.createTransport(new SMTPTransport({ url, ...timeouts }));
  return {
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
  };
}

/** The sender when MAIL_FROM is unset: the shop, at the host of its public address. */
export function senderFor(e: Env): string {
  return e.MAIL_FROM ?? `"Atelier Prints" <orders@${new URL(publicBaseUrl(e)).hostname}>`;
}

/** The configured mailer, or null when mail is off (no SMTP_URL). */
export function mailerFor(e: Env): Mailer | null {
  return e.SMTP_URL ? smtpMailer(e.SMTP_URL, senderFor(e)) : null;
}

let configured: { mailer: Mailer | null } | undefined;

export function configuredMailer(): Mailer | null {
  configured ??= { mailer: mailerFor(env()) };
  return configured.mailer;
}
