import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Mailer } from './mailer.ts';
import { toNodemailer } from './smtp.ts';

/**
 * Development mail: each message as an .eml file in a folder (open it in any mail client).
 * Named by message id, so sending the same message again rewrites the same file.
 */
export function outboxMailer(options: { dir: string; from: string }): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail(toNodemailer(message, options.from));
      await mkdir(options.dir, { recursive: true });
      await writeFile(join(options.dir, `${message.id.replace(/[^\w.-]/g, '_')}.eml`), info.message as Buffer);
    },
  };
}
