// `npm start` creates one demo channel on the first start of an installation and
// prints its credentials once; the settings row makes sure it never happens again.
import type { Context } from '../context.ts';
import { createChannel, type IssuedCredentials } from './channels.service.ts';

const FLAG = 'demo_channel_created';

export function ensureDemoChannel(ctx: Pick<Context, 'database' | 'keys' | 'clock'>): Promise<IssuedCredentials | undefined> {
  return ctx.database.db.transaction().execute(async (tx) => {
    const claimed = await tx
      .insertInto('settings')
      .values({ key: FLAG, value: ctx.clock.now().toISOString() })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) === 0) return undefined;
    return createChannel({ ...ctx, database: { ...ctx.database, db: tx } }, { name: 'Canal de demonstração' });
  });
}
