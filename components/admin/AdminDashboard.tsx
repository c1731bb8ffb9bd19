'use client'

import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Alert } from '@/components/ui/Alert'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { useHydrated } from '@/components/ui/useHydrated'
import type { KeySignerKind } from '@/lib/web/signing/availableSigners'
import { fetchMetrics, fetchSystemStatus, metricsQueryKey, systemQueryKey } from './adminApi'
import { DeadLetterBanner } from './DeadLetterBanner'
import { formatDuration } from './format'
import { QueueSummary } from './QueueSummary'
import { RefreshControl } from './RefreshControl'
import { ReserveCheckBanner } from './ReserveCheckBanner'
import { ReservesNow } from './ReservesNow'
import { ReconciliationPanel } from './reconciliation/ReconciliationPanel'
import { SignersPanel } from './SignersPanel'
import { SqsQueueSummary } from './SqsQueueSummary'
import { TaskHealthTable } from './TaskHealthTable'
import { ThroughputChart } from './throughput-chart/ThroughputChart'
import { WorkersPanel } from './WorkersPanel'

export const DASHBOARD_REFRESH_MS = 5_000

/**
 * The admin's one-glance view, refreshed every few seconds (React Query) until paused:
 * the reserve check, the reserves now and dead letters first, then the queue, per-task health, throughput,
 * signers, workers.
 */
export function AdminDashboard({ keySigners }: { keySigners: readonly KeySignerKind[] }) {
  const [paused, setPaused] = useState(false)
  const interval = paused ? false : DASHBOARD_REFRESH_MS
  const metricsQuery = useQuery({ queryKey: metricsQueryKey, queryFn: fetchMetrics, refetchInterval: interval })
  // the admin menu shares the metrics cache and may fill it before this part hydrates: its figures show once hydrated
  const hydrated = useHydrated()
  const metrics = hydrated ? metricsQuery : { ...metricsQuery, data: undefined, dataUpdatedAt: 0, isPending: true }
  const system = useQuery({ queryKey: systemQueryKey, queryFn: fetchSystemStatus, refetchInterval: interval })

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1>Admin dashboard</h1>
          <p className="mt-1 text-sm text-stone-600">
            Is minting healthy? Everything below is read from Postgres and the chain.
          </p>
        </div>
        <RefreshControl
          paused={paused}
          onPausedChange={setPaused}
          intervalMs={DASHBOARD_REFRESH_MS}
          updatedAt={metrics.dataUpdatedAt}
          fetching={metrics.isFetching || system.isFetching}
          onRefresh={() => {
            void metrics.refetch()
            void system.refetch()
          }}
        />
      </div>

      {metrics.error ? (
        <Alert tone="error" title="The metrics could not be loaded">
          {metrics.error.message} {metrics.data ? 'Showing the last figures received.' : null}
        </Alert>
      ) : null}

      {system.data ? <ReserveCheckBanner check={system.data.reserveCheck} /> : null}
      <ReservesNow refreshMs={interval} />

      {metrics.data ? (
        <>
          <DeadLetterBanner deadLetters={metrics.data.deadLetters} />
          <section aria-labelledby="queue-heading" className="space-y-3">
            <h2 id="queue-heading" className="text-base font-semibold">
              Queue
            </h2>
            <QueueSummary metrics={metrics.data} />
          </section>
          <SqsQueueSummary refreshMs={interval} />
          <Card aria-labelledby="tasks-heading">
            <CardHeader>
              <CardTitle id="tasks-heading">Tasks</CardTitle>
              <CardDescription>
                Depth now; attempts, failure rate and run times over the last{' '}
                {formatDuration(metrics.data.windowSeconds * 1000)}. The limit is the heartbeat takeover threshold: a
                job running that long on a stalled worker is taken over.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <TaskHealthTable metrics={metrics.data} />
            </CardContent>
          </Card>
          <Card aria-labelledby="throughput-heading">
            <CardHeader>
              <CardTitle id="throughput-heading">Throughput, last hour</CardTitle>
            </CardHeader>
            <CardContent>
              <ThroughputChart points={metrics.data.throughput.buckets} />
            </CardContent>
          </Card>
        </>
      ) : metrics.isPending ? (
        <p className="text-sm text-stone-500" role="status">
          Loading the figures…
        </p>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-5">
        <Card aria-labelledby="signers-heading" className="lg:col-span-3">
          <CardHeader>
            <CardTitle id="signers-heading">Signers</CardTitle>
            <CardDescription>Postgres hands out the nonces; the chain shows what is mined and pending.</CardDescription>
          </CardHeader>
          <CardContent>
            {system.data ? <SignersPanel system={system.data} keySigners={keySigners} /> : null}
            {system.error ? <Alert tone="error">{system.error.message}</Alert> : null}
          </CardContent>
        </Card>
        <Card aria-labelledby="workers-heading" className="lg:col-span-2">
          <CardHeader>
            <CardTitle id="workers-heading">Workers</CardTitle>
            <CardDescription>Heartbeats of the worker processes.</CardDescription>
          </CardHeader>
          <CardContent>
            {system.data ? <WorkersPanel system={system.data} /> : null}
            {system.error ? <Alert tone="error">{system.error.message}</Alert> : null}
          </CardContent>
        </Card>
      </div>

      <Card aria-labelledby="reconciliation-heading">
        <CardHeader>
          <CardTitle id="reconciliation-heading">Chain reconciliation</CardTitle>
          <CardDescription>
            What the chain holds that the desk's records do not: after a database restore the worker resyncs the nonces
            and finds the forgotten mints again; an event with no record waits here for an admin.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ReconciliationPanel />
        </CardContent>
      </Card>
    </div>
  )
}
