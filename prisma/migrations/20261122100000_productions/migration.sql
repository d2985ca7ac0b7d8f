-- Productions, their pitch versions and their timeline.

CREATE TYPE "stage" AS ENUM ('queued', 'writing_pitch', 'pitch_ready', 'greenlit', 'making', 'exporting', 'delivered', 'skipped', 'declined', 'cancelled', 'failed');

CREATE TABLE "productions" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "created_by" UUID NOT NULL,
    "stage" "stage" NOT NULL DEFAULT 'queued',
    "source_kind" TEXT NOT NULL,
    "external_id" TEXT,
    "origin" JSONB,
    "brief" JSONB NOT NULL,
    "greenlight_mode" TEXT NOT NULL,
    "greenlight" JSONB,
    "delivery" JSONB,
    "project_id" UUID,
    "credits_charged" INTEGER NOT NULL DEFAULT 0,
    "revisions_left" INTEGER NOT NULL DEFAULT 3,
    "pitch_version" INTEGER,
    "queue" JSONB,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "productions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "productions_created_by_workspace_id_external_id_key" ON "productions"("created_by", "workspace_id", "external_id");
CREATE INDEX "productions_workspace_id_created_at_id_idx" ON "productions"("workspace_id", "created_at" DESC, "id" DESC);
CREATE INDEX "productions_workspace_id_stage_idx" ON "productions"("workspace_id", "stage");

CREATE TABLE "pitch_versions" (
    "production_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "workspace_id" UUID NOT NULL,
    "pitch" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "pitch_versions_pkey" PRIMARY KEY ("production_id", "version")
);
CREATE INDEX "pitch_versions_workspace_id_created_at_idx" ON "pitch_versions"("workspace_id", "created_at");

CREATE TABLE "production_events" (
    "id" UUID NOT NULL,
    "production_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "actor_name" TEXT,
    "payload" JSONB NOT NULL,
    "step_key" TEXT NOT NULL,
    "seq" SERIAL NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "production_events_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "production_events_step_key_key" ON "production_events"("step_key");
CREATE INDEX "production_events_production_id_seq_idx" ON "production_events"("production_id", "seq");

ALTER TABLE "productions" ADD CONSTRAINT "productions_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "pitch_versions" ADD CONSTRAINT "pitch_versions_production_id_fkey" FOREIGN KEY ("production_id") REFERENCES "productions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "production_events" ADD CONSTRAINT "production_events_production_id_fkey" FOREIGN KEY ("production_id") REFERENCES "productions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
