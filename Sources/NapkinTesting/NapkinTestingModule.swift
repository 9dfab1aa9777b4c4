enum NapkinTestingModule {}
