import { AlertTriangle, CheckCircle2, Download, HardDriveDownload, MinusCircle, XCircle } from 'lucide-react';
import { SECURITY_GREEN_AT, type SecurityReport } from '../../../contract/admin.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { InlineLoading } from '../../components/ui/spinner.tsx';
import { formatCityTime } from '../../lib/city-time.ts';
import { useCityTimeZone } from '../events/events.queries.ts';
import { useBackups, useSecurityReport, useSystemStatus, useTakeBackup } from './admin-area.queries.ts';

type Status = SecurityReport['checklist'][number]['status'];
const STATUS: Record<Status, { label: string; icon: typeof CheckCircle2; className: string }> = {
  pass: { label: 'Pass', icon: CheckCircle2, className: 'text-success' },
  warn: { label: 'Warning', icon: AlertTriangle, className: 'text-accent' },
  fail: { label: 'Fail', icon: XCircle, className: 'text-destructive' },
  'n/a': { label: 'Not applicable', icon: MinusCircle, className: 'text-muted-foreground' },
};

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;
const at = (iso: string, timeZone: string | undefined) => formatCityTime(iso, timeZone, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** The backups the server writes by itself (BACKUP_DIR), each to download, and one to write now. */
function KeptBackups() {
  const backups = useBackups();
  const take = useTakeBackup();
  const timeZone = useCityTimeZone();
  if (backups.isPending) return <InlineLoading label="Reading the backups kept…" />;
  if (backups.isError)
    return (
      <p role="alert" className="mt-3 text-sm text-destructive">
        Could not read the backups kept.
      </p>
    );
  const b = backups.data;
  return (
    <div className="mt-4 border-t border-border pt-4">
      <h3 className="text-sm font-semibold">Kept on the server</h3>
      <p className="mt-1 text-sm text-muted-foreground" data-testid="backup-schedule">
        {b.scheduled
          ? `Every ${b.everyHours === 1 ? 'hour' : `${b.everyHours} hours`} into ${b.dir}, each kept ${b.keepDays} ${b.keepDays === 1 ? 'day' : 'days'} (the newest always).${b.next ? ` Next: ${at(b.next, timeZone)}.` : ''}`
          : `Not scheduled (BACKUP_EVERY_HOURS=0): backups are written into ${b.dir} only on request.`}
      </p>
      {b.lastError && (
        <p role="alert" className="mt-1 text-sm text-destructive" data-testid="backup-error">
          The last scheduled backup failed: {b.lastError}
        </p>
      )}
      {b.backups.length > 0 ? (
        <ul className="mt-2 divide-y divide-border text-sm" aria-label="Backups kept">
          {b.backups.map((k) => (
            <li key={k.name} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <time dateTime={k.at}>{at(k.at, timeZone)}</time> <span className="text-muted-foreground">· {megabytes(k.bytes)}</span>
              </span>
              <a href={`/api/admin/backups/${encodeURIComponent(k.name)}`} download className="inline-flex min-h-11 items-center gap-1 font-medium text-primary underline-offset-2 hover:underline" aria-label={`Download the backup of ${at(k.at, timeZone)}`}>
                <Download className="h-4 w-4" aria-hidden />
                Download
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-sm text-muted-foreground">None kept yet.</p>
      )}
      <Button variant="outline" className="mt-3" onClick={() => take.mutate()} disabled={take.isPending}>
        <HardDriveDownload className="h-4 w-4" aria-hidden />
        {take.isPending ? 'Writing a backup…' : 'Back up now'}
      </Button>
    </div>
  );
}

/** Backups: the embedded database downloads whole and is backed up on a schedule; a PostgreSQL server is pg_dump's. */
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
          <KeptBackups />
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
