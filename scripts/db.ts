/** `npm run db:migrate` / `npm run db:seed`: the same steps `npm start` runs, on their own. */
import { openDatabase, prepareDatabase } from '@/server/db/bootstrap';
import { migrate } from '@/server/db/migrate';
import { parseEnv } from '@/server/env';
import { logger } from '@/server/logger';

const command = process.argv[2];
const config = parseEnv(process.env);
const database = await openDatabase(config);
try {
  if (command === 'migrate') logger.info('applied: %s', (await migrate(database.url)).join(', ') || 'nothing, up to date');
  else if (command === 'seed') await prepareDatabase(database.url);
  else throw new Error('usage: npm run db:migrate | npm run db:seed');
} finally {
  await database.stop();
}
