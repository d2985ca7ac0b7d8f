-- When an endpoint was created or last switched back on: with its last success, where the
-- switch-off window starts. An endpoint made before this column was added counts from its creation.
ALTER TABLE "webhook_endpoints" ADD COLUMN "enabled_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;
UPDATE "webhook_endpoints" SET "enabled_at" = "created_at";
