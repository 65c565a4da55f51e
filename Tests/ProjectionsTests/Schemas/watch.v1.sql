CREATE TABLE "watchStatus" ("userId" INTEGER NOT NULL, "movieId" INTEGER NOT NULL, "status" TEXT NOT NULL, "progressPercent" INTEGER NOT NULL, "updatedAt" INTEGER NOT NULL, PRIMARY KEY ("userId", "movieId"));
CREATE TABLE "watchlistEntry" ("userId" INTEGER NOT NULL, "movieId" INTEGER NOT NULL, "addedAt" INTEGER NOT NULL, "position" INTEGER NOT NULL, PRIMARY KEY ("userId", "movieId"));
