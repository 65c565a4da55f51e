CREATE INDEX "chatToken_on_userId" ON "chatToken"("userId");
CREATE TABLE "chatToken" ("tokenHash" TEXT PRIMARY KEY NOT NULL, "userId" INTEGER NOT NULL, "issuedAt" INTEGER NOT NULL);
