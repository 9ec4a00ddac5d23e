import { Activity, BarChart3, Bot, Database, ShieldCheck, Users } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'wouter';
import { buttonClass } from '../../components/ui/button.tsx';
import { InlineLoading } from '../../components/ui/spinner.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx';
import { AdminAiSystems } from './admin-ai-systems.tsx';
import { AdminOverview } from './admin-overview.tsx';
import { AdminSecurity } from './admin-security.tsx';
import { AdminUsers } from './admin-users.tsx';

// The chart library is heavy: only the Analytics tab loads it.
const AdminAnalytics = lazy(() => import('./admin-analytics.tsx'));

const TABS = [
  { id: 'overview', label: 'Overview', icon: Activity },
  { id: 'analytics', label: 'Analytics', icon: BarChart3 },
  { id: 'users', label: 'Users', icon: Users },
  { id: 'ai', label: 'AI Systems', icon: Bot },
  { id: 'security', label: 'Security', icon: ShieldCheck },
] as const;
type TabId = (typeof TABS)[number]['id'];

/** The admin page (spec section 2): five tabs over live figures from this server. */
export default function AdminDashboardPage() {
  const [tab, setTab] = useState<TabId>('overview');
  return (
    <section aria-labelledby="admin-heading">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="admin-heading" className="text-3xl font-bold">
            Admin Dashboard
          </h1>
          <p className="mt-1 text-muted-foreground">Live figures from this server.</p>
        </div>
        <Link href="/admin/sources" className={buttonClass('outline')}>
          <Database className="h-4 w-4" aria-hidden />
          Event sources
        </Link>
      </div>
      <Tabs value={tab} onValueChange={(v) => setTab(v as TabId)} className="mt-6">
        <TabsList aria-label="Admin sections">
          {TABS.map((t) => (
            <TabsTrigger key={t.id} value={t.id}>
              <t.icon className="h-4 w-4" aria-hidden />
              {t.label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="overview">
          <AdminOverview />
        </TabsContent>
        <TabsContent value="analytics">
          <Suspense fallback={<InlineLoading label="Loading charts…" />}>
            <AdminAnalytics />
          </Suspense>
        </TabsContent>
        <TabsContent value="users">
          <AdminUsers />
        </TabsContent>
        <TabsContent value="ai">
          <AdminAiSystems />
        </TabsContent>
        <TabsContent value="security">
          <AdminSecurity />
        </TabsContent>
      </Tabs>
    </section>
  );
}
