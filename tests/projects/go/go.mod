module example.com/ukasango

go 1.21
