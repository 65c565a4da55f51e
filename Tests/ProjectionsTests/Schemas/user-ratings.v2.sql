CREATE INDEX "userRatingByMovie" ON "userRating"("movieId");
CREATE INDEX "userRatingByUserPosition" ON "userRating"("userId", "position");
CREATE TABLE "userRating" ("userId" INTEGER NOT NULL, "movieId" INTEGER NOT NULL, "rating" DOUBLE NOT NULL, "comment" TEXT, "ratedAt" INTEGER NOT NULL, "position" INTEGER NOT NULL, PRIMARY KEY ("userId", "movieId"));
