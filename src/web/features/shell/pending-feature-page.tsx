/** The frame of a feature whose screen has not been built yet: its heading, and a plain notice. */
export default function PendingFeaturePage({ title }: { title: string }) {
  return (
    <section aria-labelledby="page-heading">
      <h1 id="page-heading" className="text-3xl font-bold">
        {title}
      </h1>
      <p className="mt-3 max-w-prose rounded-lg border border-dashed border-border bg-card p-4 text-muted-foreground">
        This part of Townbeat is not available yet.
      </p>
    </section>
  );
}
