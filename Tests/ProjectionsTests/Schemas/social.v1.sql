CREATE INDEX "friendRequestByRecipient" ON "friendRequest"("toUserId", "position");
CREATE INDEX "userBlockByBlocked" ON "userBlock"("blockedUserId");
CREATE TABLE "friendRequest" ("fromUserId" INTEGER NOT NULL, "toUserId" INTEGER NOT NULL, "requestedAt" INTEGER NOT NULL, "position" INTEGER NOT NULL, PRIMARY KEY ("fromUserId", "toUserId"));
CREATE TABLE "friendship" ("userId" INTEGER NOT NULL, "friendId" INTEGER NOT NULL, "since" INTEGER NOT NULL, PRIMARY KEY ("userId", "friendId"));
CREATE TABLE "movieRecommendation" ("toUserId" INTEGER NOT NULL, "movieId" INTEGER NOT NULL, "fromUserId" INTEGER NOT NULL, "recommendedAt" INTEGER NOT NULL, "position" INTEGER NOT NULL, PRIMARY KEY ("toUserId", "movieId", "fromUserId"));
CREATE TABLE "mutualFriend" ("userId" INTEGER NOT NULL, "otherId" INTEGER NOT NULL, "mutualCount" INTEGER NOT NULL, PRIMARY KEY ("userId", "otherId"));
CREATE TABLE "userBlock" ("userId" INTEGER NOT NULL, "blockedUserId" INTEGER NOT NULL, "blockedAt" INTEGER NOT NULL, PRIMARY KEY ("userId", "blockedUserId"));
