CREATE UNIQUE INDEX "recipeByOwnerAndStamp" ON "recipe"("userId", "updatedAt");
CREATE TABLE "recipe" ("recipeId" TEXT PRIMARY KEY NOT NULL, "userId" INTEGER NOT NULL, "name" TEXT NOT NULL, "description" TEXT, "ingredients" TEXT NOT NULL, "instructions" TEXT NOT NULL, "prepTime" INTEGER, "cookTime" INTEGER, "servings" INTEGER, "calories" INTEGER, "difficulty" TEXT, "cuisine" TEXT, "dietaryTags" TEXT, "imageUrl" TEXT, "estimatedCost" DOUBLE, "createdAt" INTEGER NOT NULL, "updatedAt" INTEGER NOT NULL);
CREATE TABLE "recipeClock" ("userId" INTEGER PRIMARY KEY, "latestStamp" INTEGER NOT NULL);
