import type { Command } from 'commander';
import { mailbox, mailboxMessage } from '../../modules/notifications/notifications.service.js';
import { CliError, cliServices, withDatabase, type CliIo } from '../context.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `fishlog mail list|show`: the local mailbox, where mail goes while no SMTP server is configured
 * (system setting EmailSmtpEnabled false, the default): what the service would have sent.
 */
export function registerMail(program: Command, io: CliIo): void {
  const mail = program.command('mail').description('Read the local mailbox (mail kept while EmailSmtpEnabled is off)');

  mail
    .command('list')
    .description('The newest messages: id, time, recipient, subject')
    .option('--limit <n>', 'how many (1-1000)', '20')
    .action(async (options: { limit: string }) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new CliError('--limit must be a whole number from 1 to 1000', 2);
      await withDatabase(io, async (database, config) => {
        const rows = await mailbox(cliServices(database, config), limit);
        if (rows.length === 0) io.out('the mailbox is empty\n');
        for (const row of rows) io.out(`${row.id}  ${row.createdAt.toISOString()}  ${row.to}  ${row.subject}\n`);
      });
    });

  mail
    .command('show')
    .argument('<id>', 'a message id from `fishlog mail list`')
    .description('One message: headers and its plain-text body')
    .action(async (id: string) => {
      if (!UUID.test(id)) throw new CliError(`"${id}" is not a message id; list them with \`fishlog mail list\``, 2);
      await withDatabase(io, async (database, config) => {
        const row = await mailboxMessage(cliServices(database, config), id);
        if (!row) throw new CliError(`no message ${id} in the mailbox`, 1);
        io.out(`From: ${row.from}\nTo: ${row.to}\nDate: ${row.createdAt.toISOString()}\nSubject: ${row.subject}\n`);
        for (const [name, value] of Object.entries(row.headers)) io.out(`${name}: ${value}\n`);
        io.out(`\n${row.text}`);
      });
    });
}
