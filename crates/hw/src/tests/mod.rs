mod cores;
