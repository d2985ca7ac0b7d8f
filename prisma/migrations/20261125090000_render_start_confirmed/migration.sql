-- AlterTable
ALTER TABLE "renders" ADD COLUMN     "start_confirmed_at" TIMESTAMPTZ(3);

-- CreateIndex
CREATE INDEX "renders_status_created_at_idx" ON "renders"("status", "created_at");
