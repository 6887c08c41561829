import nodemailer from 'nodemailer';
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

/** Any SMTP relay, by address (`smtp://user:pass@host:587`, `smtps://…:465`), through nodemailer. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
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
