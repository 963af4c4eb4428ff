public enum SharedLogicModule {}
