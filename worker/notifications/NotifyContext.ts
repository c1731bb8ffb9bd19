import type { Db } from '@/db/client'
import type { NotificationSettings } from '@/lib/notifications/notificationSettings'

/** What the notification jobs need besides the database: their settings and the mode. */
export type NotifyContext = {
  settings: NotificationSettings
  /** production: webhook targets must be https and public (lib/notifications/resolveSafeAddresses) */
  production: boolean
}

/** The database and the worker id a notification job runs with. */
export type NotifyRun = NotifyContext & { db: Db; workerId: string }
