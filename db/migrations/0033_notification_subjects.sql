-- Notification events of redemptions and compliance operations (docs/decisions/055, 056): an event names at most
-- one subject (a mint order, a redemption or a compliance operation; a deposit event none), and the new types.
ALTER TABLE "notification_events" DROP CONSTRAINT "notification_events_type";--> statement-breakpoint
ALTER TABLE "notification_events" ALTER COLUMN "order_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_events" ADD COLUMN "redemption_id" uuid;--> statement-breakpoint
ALTER TABLE "notification_events" ADD COLUMN "compliance_operation_id" uuid;--> statement-breakpoint
ALTER TABLE "notification_events" ADD CONSTRAINT "notification_events_redemption_id_redemptions_id_fk" FOREIGN KEY ("redemption_id") REFERENCES "public"."redemptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_events" ADD CONSTRAINT "notification_events_compliance_operation_id_compliance_operations_id_fk" FOREIGN KEY ("compliance_operation_id") REFERENCES "public"."compliance_operations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_events" ADD CONSTRAINT "notification_events_one_subject" CHECK (num_nonnulls("notification_events"."order_id", "notification_events"."redemption_id", "notification_events"."compliance_operation_id") <= 1);--> statement-breakpoint
ALTER TABLE "notification_events" ADD CONSTRAINT "notification_events_type" CHECK (type in ('mint.awaiting_approval', 'mint.confirmed', 'mint.failed', 'mint.dead_letter', 'mint.submitted', 'mint.replaced', 'mint.reorged', 'redemption.deposit_received', 'redemption.awaiting_approval', 'redemption.burned', 'redemption.failed', 'compliance.awaiting_approval', 'compliance.applied', 'compliance.failed'));