mod cores;
mod live;
