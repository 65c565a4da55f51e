CREATE INDEX "signedOutTokenByExpiry" ON "signedOutToken"("expiresAt");
CREATE TABLE "signedOutToken" ("userId" INTEGER NOT NULL, "tokenId" TEXT NOT NULL, "expiresAt" INTEGER NOT NULL, PRIMARY KEY ("userId", "tokenId"));
