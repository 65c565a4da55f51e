CREATE INDEX "newsPreferencesPosition" ON "newsPreferences"("position");
CREATE INDEX "newsPreferencesReader" ON "newsPreferences"("readerId");
CREATE TABLE "newsPreferences" ("identity" TEXT NOT NULL, "position" INTEGER NOT NULL, "focusProfile" TEXT NOT NULL, "holdings" TEXT NOT NULL, "readerId" INTEGER, PRIMARY KEY ("identity", "position"));
CREATE TABLE "newsReader" ("userId" INTEGER PRIMARY KEY, "identity" TEXT NOT NULL);
