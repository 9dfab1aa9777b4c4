enum NapkinHTTPModule {}
