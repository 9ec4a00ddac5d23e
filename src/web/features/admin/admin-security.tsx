import { AlertTriangle, CheckCircle2, Download, MinusCircle, XCircle } from 'lucide-react';
import { SECURITY_GREEN_AT, type SecurityReport } from '../../../contract/admin.ts';
import { buttonClass } from '../../components/ui/button.tsx';
import { InlineLoading } from '../../components/ui/spinner.tsx';
import { useSecurityReport, useSystemStatus } from './admin-area.queries.ts';

type Status = SecurityReport['checklist'][number]['status'];
const STATUS: Record<Status, { label: string; icon: typeof CheckCircle2; className: string }> = {
  pass: { label: 'Pass', icon: CheckCircle2, className: 'text-success' },
  warn: { label: 'Warning', icon: AlertTriangle, className: 'text-accent' },
  fail: { label: 'Fail', icon: XCircle, className: 'text-destructive' },
  'n/a': { label: 'Not applicable', icon: MinusCircle, className: 'text-muted-foreground' },
};

/** Backups: the embedded database downloads whole; a PostgreSQL server is pg_dump's. */
function Backup() {
  const status = useSystemStatus();
  const kind = status.data?.database.kind;
  if (!kind) return null;
  return (
    <section aria-labelledby="backup-heading" className="rounded-lg border border-border bg-card p-4 shadow-sm">
      <h2 id="backup-heading" className="font-semibold">
        Backup
      </h2>
      {kind === 'embedded' ? (
        <>
          <p className="mt-1 text-sm text-muted-foreground">
            Everything this server keeps (events, sources, accounts, points) in one file. To start from it, set RESTORE_FROM to the file and DATA_DIR to an empty directory.
          </p>
          <a href="/api/admin/backup" download className={buttonClass('outline', 'mt-3')}>
            <Download className="h-4 w-4" aria-hidden />
            Download a backup
          </a>
        </>
      ) : (
        <p className="mt-1 text-sm text-muted-foreground">This server keeps its data in PostgreSQL (DATABASE_URL): back it up with pg_dump.</p>
      )}
    </section>
  );
}

/** Security: the score (green at 80 or more, spec section 9), the checklist behind it, and backups. */
export function AdminSecurity() {
  const report = useSecurityReport();
  if (report.isPending) return <InlineLoading label="Running security checks…" />;
  if (report.isError)
    return (
      <p role="alert" className="text-destructive">
        Could not load the security report.
      </p>
    );
  const { securityScore, checklist } = report.data;
  const green = securityScore >= SECURITY_GREEN_AT;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-4 rounded-lg border border-border bg-card p-4 shadow-sm">
        <p className={`text-5xl font-bold tabular-nums ${green ? 'text-success' : 'text-accent'}`} data-testid="security-score" data-green={green}>
          {securityScore}
        </p>
        <span className="-ml-2 self-end pb-1 text-sm text-muted-foreground">/ 100</span>
        <div>
          <p className="font-semibold">Security Score</p>
          <p className="text-sm text-muted-foreground">
            {green ? 'Good: ' : 'Needs attention: '}
            {checklist.filter((c) => c.status === 'pass').length} of {checklist.filter((c) => c.status !== 'n/a').length} checks pass; the score weighs each by its importance.
          </p>
        </div>
      </div>
      <ul className="divide-y divide-border rounded-lg border border-border bg-card" aria-label="Security checklist">
        {checklist.map((c) => {
          const s = STATUS[c.status];
          return (
            <li key={c.item} className="flex gap-3 p-4" data-testid="security-check" data-status={c.status}>
              <s.icon className={`mt-0.5 h-5 w-5 shrink-0 ${s.className}`} aria-hidden />
              <div className="min-w-0">
                <p className="font-medium">
                  {c.item} <span className={`ml-1 text-xs font-semibold uppercase ${s.className}`}>{s.label}</span>
                </p>
                <p className="text-sm text-muted-foreground">{c.detail}</p>
              </div>
            </li>
          );
        })}
      </ul>
      <Backup />
    </div>
  );
}
