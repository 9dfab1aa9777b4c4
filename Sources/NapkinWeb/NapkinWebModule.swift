enum NapkinWebModule {}
