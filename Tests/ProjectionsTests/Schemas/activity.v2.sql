CREATE INDEX "activityByUser" ON "activity"("userId", "activityId");
CREATE TABLE "activity" ("activityId" INTEGER PRIMARY KEY, "userId" INTEGER NOT NULL, "movieId" INTEGER NOT NULL, "type" TEXT NOT NULL, "rating" DOUBLE, "comment" TEXT, "occurredAt" INTEGER NOT NULL);
CREATE TABLE "activityCount" ("userId" INTEGER NOT NULL, "type" TEXT NOT NULL, "count" INTEGER NOT NULL, PRIMARY KEY ("userId", "type"));
