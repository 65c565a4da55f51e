CREATE INDEX "newsPreferencesPosition" ON "newsPreferences"("position");
CREATE TABLE "newsPreferences" ("userId" TEXT NOT NULL, "position" INTEGER NOT NULL, "focusProfile" TEXT NOT NULL, "holdings" TEXT NOT NULL, PRIMARY KEY ("userId", "position"));
