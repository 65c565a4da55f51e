CREATE TABLE "newsPreferences" ("userId" TEXT PRIMARY KEY NOT NULL, "focusProfile" TEXT NOT NULL, "holdings" TEXT NOT NULL);
