import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
const dir = process.argv[2];
const mode = process.argv[3];
const opts = { dataDir: dir, extensions: { vector } };
if (mode === 'sb16') opts.startParams = [...(PGlite.defaultStartParams ?? []), '-c', 'shared_buffers=16MB'];
if (mode === 'mem64') opts.initialMemory = 64 * 1024 * 1024;
if (mode === 'both') {
  opts.startParams = ['-c', 'shared_buffers=16MB'];
  opts.initialMemory = 64 * 1024 * 1024;
}
const db = await PGlite.create(opts);
for (let i = 0; i < 50; i++) await db.query('select count(*) from invoices');
console.log(
  mode,
  (await db.query('show shared_buffers')).rows[0],
  'rss MB',
  (process.memoryUsage().rss / 1e6).toFixed(0),
  'external',
  (process.memoryUsage().external / 1e6).toFixed(0),
);
await db.close();
