import { useQuery } from '@tanstack/react-query';
import type { HealthResponse } from '../../../contract/health.ts';

/** The admin dashboard frame: live system figures; the tabs arrive with the admin area. */
export default function AdminDashboardPage() {
  const health = useQuery<HealthResponse>({ queryKey: ['/api/health'], refetchInterval: 10_000 });
  const storage = health.data?.health.metrics.storage;
  const tiles = [
    { label: 'System Status', value: health.data ? (health.data.status === 'operational' ? 'Operational' : 'Degraded') : '…' },
    { label: 'Total Events', value: storage?.totalEvents ?? '…' },
    { label: "Today's Events", value: storage?.todayEvents ?? '…' },
    { label: 'Users', value: storage?.totalUsers ?? '…' },
  ];
  return (
    <section aria-labelledby="admin-heading">
      <h1 id="admin-heading" className="text-3xl font-bold">
        Admin Dashboard
      </h1>
      <p className="mt-1 text-muted-foreground">Live figures from this server.</p>
      {health.isError && <p role="alert" className="mt-4 text-destructive">Could not load system health.</p>}
      <div className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {tiles.map((t) => (
          <div key={t.label} className="rounded-lg border border-border bg-card p-4 shadow-sm">
            <p className="text-sm text-muted-foreground">{t.label}</p>
            <p className="mt-1 text-2xl font-bold">{t.value}</p>
          </div>
        ))}
      </div>
    </section>
  );
}
