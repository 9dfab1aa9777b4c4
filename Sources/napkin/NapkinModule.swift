enum NapkinModule {}
