-- CreateIndex
CREATE INDEX "webhook_deliveries_status_attempts_created_at_idx" ON "webhook_deliveries"("status", "attempts", "created_at");
