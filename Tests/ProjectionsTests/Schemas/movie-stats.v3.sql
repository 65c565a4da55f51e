CREATE TABLE "movieDailyRatings" ("day" INTEGER NOT NULL, "movieId" INTEGER NOT NULL, "ratingCount" INTEGER NOT NULL, PRIMARY KEY ("day", "movieId"));
CREATE TABLE "movieStats" ("movieId" INTEGER PRIMARY KEY, "ratingCount" INTEGER NOT NULL, "ratingSum" DOUBLE NOT NULL);
CREATE TABLE "movieStatsRevision" ("id" INTEGER PRIMARY KEY, "position" INTEGER NOT NULL);
