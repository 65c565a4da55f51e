CREATE INDEX "chatMessageBySession" ON "chatMessage"("sessionId", "position");
CREATE INDEX "chatMessageByUser" ON "chatMessage"("userId");
CREATE INDEX "chatSessionByUserAndUpdate" ON "chatSession"("userId", "updatedAt");
CREATE TABLE "chatMessage" ("position" INTEGER PRIMARY KEY, "sessionId" INTEGER NOT NULL, "userId" INTEGER NOT NULL, "messageId" TEXT NOT NULL, "role" TEXT NOT NULL, "content" TEXT NOT NULL, "timestamp" INTEGER NOT NULL);
CREATE TABLE "chatSession" ("sessionId" INTEGER PRIMARY KEY, "userId" INTEGER NOT NULL, "title" TEXT NOT NULL, "tone" TEXT NOT NULL, "lang" TEXT NOT NULL, "createdAt" INTEGER NOT NULL, "updatedAt" INTEGER NOT NULL);
