CREATE TABLE "metric_series" (
	"process" text NOT NULL,
	"name" text NOT NULL,
	"labels" text NOT NULL,
	"value" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "metric_series_process_name_labels_pk" PRIMARY KEY("process","name","labels")
);
