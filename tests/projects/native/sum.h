long sum(long n);
