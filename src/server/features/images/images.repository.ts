import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { events, images, imageVariants } from '../events/events.table.ts';

export type ImageRow = typeof images.$inferSelect;
/** An image a worker has claimed: its address, and whether it came from a demo source. */
export interface ClaimedImage {
  id: string;
  sourceUrl: string;
  isDemo: boolean;
  attempts: number;
}

/** Queries on cached images and their resized copies, and the event links to them. */
export function createImagesRepository(db: Db) {
  return {
    /**
     * Adds an image row for up to `limit` addresses that upcoming, listed events show and that
     * have none yet (one row per address, however many events share it). Returns how many.
     */
    async insertMissing(limit: number, now: Date, isDemoUrl: (url: string) => boolean): Promise<number> {
      const rows = await queryRows<{ url: string; demo: boolean }>(
        db,
        sql`select e.image_url as url, bool_or(e.is_demo) as demo from ${events} e
          where e.image_url is not null and e.image_id is null
            and e.status not in ('rejected', 'merged') and e.gone_at is null and e.end_date > ${now.toISOString()}
            and not exists (select 1 from ${images} i where i.source_url = e.image_url)
          group by e.image_url limit ${limit}`,
      );
      if (!rows.length) return 0;
      const inserted = await db
        .insert(images)
        .values(rows.map((r) => ({ sourceUrl: r.url, isDemo: Boolean(r.demo) || isDemoUrl(r.url), createdAt: now })))
        .onConflictDoNothing({ target: images.sourceUrl })
        .returning({ id: images.id });
      return inserted.length;
    },

    /**
     * Claims up to `limit` images to fetch: new ones, ones whose earlier claim ran out (`leaseMs`
     * after it, the worker died) and failed ones whose back-off has passed, fewest attempts first.
     * The claim counts as an attempt; SKIP LOCKED keeps two instances off the same image.
     */
    claim: (limit: number, now: Date, o: { maxAttempts: number; leaseMs: number; backoffMs: number }) =>
      queryRows<ClaimedImage>(
        db,
        sql`update ${images} set attempts = attempts + 1, fetched_at = ${now.toISOString()}
          where id in (
            select id from ${images}
            where attempts < ${o.maxAttempts} and (
              (status = 'pending' and (fetched_at is null or fetched_at < ${new Date(now.getTime() - o.leaseMs).toISOString()}::timestamptz))
              -- back-off grows fourfold per failed attempt: backoffMs, then 4 x backoffMs, ...
              or (status = 'failed' and fetched_at < ${now.toISOString()}::timestamptz - (${o.backoffMs}::double precision * power(4, attempts - 1)) * interval '1 millisecond')
            )
            order by attempts, created_at
            limit ${limit}
            for update skip locked)
          returning id, source_url as "sourceUrl", is_demo as "isDemo", attempts`,
      ),

    /** Stores the resized copies (replacing any from an earlier try). */
    async insertVariants(imageId: string, variants: { width: number; height: number; contentType: string; bytes: Buffer }[]) {
      if (!variants.length) return;
      await db.delete(imageVariants).where(eq(imageVariants.imageId, imageId));
      await db.insert(imageVariants).values(variants.map((v) => ({ imageId, ...v })));
    },

    async markReady(imageId: string, size: { width: number; height: number }, now: Date) {
      await db.update(images).set({ status: 'ready', error: null, width: size.width, height: size.height, fetchedAt: now }).where(eq(images.id, imageId));
    },

    /** Records why it failed; `final` stops further attempts (the content itself is refused). */
    async markFailed(imageId: string, error: string, now: Date, final: { maxAttempts: number } | null) {
      await db
        .update(images)
        .set({ status: 'failed', error: error.slice(0, 500), fetchedAt: now, ...(final ? { attempts: final.maxAttempts } : {}) })
        .where(eq(images.id, imageId));
    },

    /** Points every event showing the image's address at the kept copy. Returns how many. */
    async linkEvents(imageId: string, sourceUrl: string): Promise<number> {
      const rows = await queryRows<{ id: string }>(db, sql`update ${events} set image_id = ${imageId} where image_url = ${sourceUrl} and image_id is null returning id`);
      return rows.length;
    },

    /** Events that arrived after their image was kept get it too (at most `limit` of them per call). */
    async linkToReady(limit: number): Promise<number> {
      const rows = await queryRows<{ id: string }>(
        db,
        sql`update ${events} e set image_id = i.id from ${images} i
          where e.id in (
            select ev.id from ${events} ev join ${images} r on r.source_url = ev.image_url and r.status = 'ready'
            where ev.image_url is not null and ev.image_id is null limit ${limit})
          and i.source_url = e.image_url and i.status = 'ready'
          returning e.id`,
      );
      return rows.length;
    },

    async findById(id: string): Promise<ImageRow | undefined> {
      const [row] = await db.select().from(images).where(eq(images.id, id));
      return row;
    },

    async findVariant(imageId: string, width: number) {
      const [row] = await db
        .select({ contentType: imageVariants.contentType, bytes: imageVariants.bytes })
        .from(imageVariants)
        .where(and(eq(imageVariants.imageId, imageId), eq(imageVariants.width, width)));
      return row;
    },
  };
}

export type ImagesRepository = ReturnType<typeof createImagesRepository>;
