import { runServer } from './server.js';

// `npm start`: serve the API; configuration comes from the environment (see .env.example).
process.exitCode = await runServer();
