import type { Command } from 'commander';
import { runServer } from '../../server.js';
import type { CliIo } from '../context.js';

export function registerServe(program: Command, io: CliIo, setExit: (code: number) => void): void {
  program
    .command('serve')
    .description('Serve the API (same as npm start): migrations and seeds are applied first')
    .option('-p, --port <port>', 'port to listen on (overrides PORT)')
    .option('--host <host>', 'address to listen on (overrides HOST)')
    .action(async (options: { port?: string; host?: string }) => {
      const env = { ...io.env };
      if (options.port !== undefined) env.PORT = options.port;
      if (options.host !== undefined) env.HOST = options.host;
      setExit(await runServer(env));
    });
}
