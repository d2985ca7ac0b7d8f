-- Projects with versioned compositions, their exports (files in the blob store), and the
-- one-call renders.

CREATE TYPE "export_status" AS ENUM ('queued', 'rendering', 'done', 'failed');
CREATE TYPE "render_status" AS ENUM ('queued', 'rendering', 'done', 'failed');

CREATE TABLE "projects" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "production_id" UUID,
    "title" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "projects_production_id_key" ON "projects"("production_id");
CREATE INDEX "projects_workspace_id_created_at_idx" ON "projects"("workspace_id", "created_at");

CREATE TABLE "project_versions" (
    "project_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "composition" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "project_versions_pkey" PRIMARY KEY ("project_id", "version")
);

CREATE TABLE "exports" (
    "id" UUID NOT NULL,
    "project_id" UUID NOT NULL,
    "project_version" INTEGER NOT NULL,
    "status" "export_status" NOT NULL DEFAULT 'queued',
    "video_key" TEXT,
    "poster_key" TEXT,
    "bytes" INTEGER,
    "duration_ms" INTEGER,
    "width" INTEGER,
    "height" INTEGER,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    CONSTRAINT "exports_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "exports_project_id_created_at_idx" ON "exports"("project_id", "created_at");

CREATE TABLE "renders" (
    "id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "status" "render_status" NOT NULL DEFAULT 'queued',
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "resolution" TEXT NOT NULL,
    "background" TEXT NOT NULL,
    "app_name" TEXT,
    "accent" TEXT,
    "image_keys" TEXT[],
    "project_id" UUID NOT NULL,
    "export_id" UUID NOT NULL,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "renders_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "renders_account_id_created_at_idx" ON "renders"("account_id", "created_at");

ALTER TABLE "projects" ADD CONSTRAINT "projects_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "projects" ADD CONSTRAINT "projects_production_id_fkey" FOREIGN KEY ("production_id") REFERENCES "productions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "project_versions" ADD CONSTRAINT "project_versions_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "exports" ADD CONSTRAINT "exports_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "exports" ADD CONSTRAINT "exports_project_id_project_version_fkey" FOREIGN KEY ("project_id", "project_version") REFERENCES "project_versions"("project_id", "version") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "renders" ADD CONSTRAINT "renders_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
