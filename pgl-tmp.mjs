import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
const [dir, sb, im] = process.argv.slice(2);
const opts = { dataDir: dir, extensions: { vector }, startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${sb}`] };
if (im) opts.initialMemory = Number(im) * 1024 * 1024;
const db = await PGlite.create(opts);
for (let i = 0; i < 50; i++) await db.query('select count(*) from invoices');
console.log(sb, im ?? '-', 'rss MB', (process.memoryUsage().rss / 1e6).toFixed(0), 'external', (process.memoryUsage().external / 1e6).toFixed(0));
await db.close();
