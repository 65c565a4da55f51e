CREATE INDEX "reviewByMovie" ON "review"("movieId", "updatedAt");
CREATE TABLE "review" ("reviewId" INTEGER PRIMARY KEY, "userId" INTEGER NOT NULL, "movieId" INTEGER NOT NULL, "rating" DOUBLE NOT NULL, "comment" TEXT, "createdAt" INTEGER NOT NULL, "updatedAt" INTEGER NOT NULL, "likeCount" INTEGER NOT NULL DEFAULT 0, UNIQUE ("userId", "movieId"));
CREATE TABLE "reviewLike" ("reviewId" INTEGER NOT NULL, "userId" INTEGER NOT NULL, PRIMARY KEY ("reviewId", "userId"));
