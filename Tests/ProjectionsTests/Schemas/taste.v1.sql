CREATE INDEX "userGenreByGenre" ON "userGenre"("genre", "likedCount");
CREATE TABLE "tasteMovieGenre" ("movieId" INTEGER NOT NULL, "genre" TEXT NOT NULL, PRIMARY KEY ("movieId", "genre"));
CREATE TABLE "userGenre" ("userId" INTEGER NOT NULL, "genre" TEXT NOT NULL, "ratedCount" INTEGER NOT NULL, "likedCount" INTEGER NOT NULL, "ratingSum" DOUBLE NOT NULL, PRIMARY KEY ("userId", "genre"));
